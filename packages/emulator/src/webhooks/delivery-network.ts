/**
 * Test seams of the delivery network; production leaves both unset. The URL policy still sees
 * the resolver's answers and the request keeps the URL's name as Host header and TLS SNI.
 */
export interface DeliveryNetwork {
  /** Where a checked address really connects: a test's local stand-in for a public address. */
  dial?: (address: string, port: number) => { address: string; port: number };
  /** CA certificates (PEM) trusted for https deliveries instead of the system's (a test's self-signed one). */
  ca?: string | string[];
}
