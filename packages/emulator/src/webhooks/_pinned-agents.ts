import type { LookupAddress } from 'node:dns';
import { isIPv6, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { DeliveryNetwork } from './delivery-network';

// Enough for every endpoint a developer runs at once; an evicted agent finishes its requests first.
export const KEPT_AGENTS = 32;
const agents = new Map<string, Agent>();
const networkIds = new WeakMap<DeliveryNetwork, number>();
let networkCount = 0;
const NO_NETWORK: DeliveryNetwork = {};

/**
 * The undici agent that connects to `origin` only at `addresses` (`null`: as named, for a
 * loopback host under the `local` policy). Agents are kept per origin and address set, so
 * keep-alive sockets are reused, never shared with another address, and bounded in number.
 */
export function deliveryAgent(
  origin: string,
  addresses: readonly string[] | null,
  network: DeliveryNetwork = NO_NETWORK,
): Agent {
  const key = `${networkId(network)} ${origin} ${addresses?.join(',') ?? '*'}`;
  const kept = agents.get(key);
  agents.delete(key);
  const agent = kept ?? new Agent({ connect: connectOptions(addresses, network) });
  agents.set(key, agent);
  for (const [oldKey, oldAgent] of agents) {
    if (agents.size <= KEPT_AGENTS) break;
    agents.delete(oldKey);
    void oldAgent.close().catch(() => {});
  }
  return agent;
}

// Agents of different test seams (dial, trusted CAs) must never be shared.
function networkId(network: DeliveryNetwork): number {
  let id = networkIds.get(network);
  if (id === undefined) {
    id = networkCount++;
    networkIds.set(network, id);
  }
  return id;
}

function connectOptions(
  addresses: readonly string[] | null,
  network: DeliveryNetwork,
): NonNullable<Agent.Options['connect']> {
  const trust = network.ca === undefined ? {} : { ca: network.ca };
  if (addresses === null) return trust;
  const dial = network.dial;
  if (dial === undefined) return { ...trust, lookup: pinnedLookup(addresses) };
  // Test seam: the socket goes to the stand-in, while Host and SNI (taken from the request's
  // host, not from these options) stay the URL's name.
  const connect = buildConnector(trust);
  const checked = addresses[0]!;
  return (options, callback) => {
    const target = dial(checked, Number(options.port) || (options.protocol === 'https:' ? 443 : 80));
    return connect({ ...options, hostname: target.address, port: String(target.port) }, callback);
  };
}

/**
 * A `dns.lookup` stand-in that answers the checked addresses whatever the name: the socket
 * connects where the URL policy looked, never where a second resolution would point.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const matching =
      family === 4 || family === 6 ? entries.filter((entry) => entry.family === family) : entries;
    const first = matching[0];
    if (first === undefined) {
      const error = Object.assign(new Error(`no checked IPv${family} address for ${hostname}`), {
        code: 'ENOTFOUND',
      });
      callback(error, '', 0);
    } else if (options.all) callback(null, matching);
    else callback(null, first.address, first.family);
  };
}
