/** This SDK's version, sent in the `User-Agent` header as `parley-sdk-js/<version>`. */
export const SDK_VERSION = '0.1.0';
