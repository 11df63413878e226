/*
 * Preloaded (NODE_OPTIONS=--require) into the API and worker processes of the schema fuzz
 * (api/openapi.fuzz.test.ts): host names other than `localhost` resolve to nothing (ENOTFOUND),
 * so no URL schemathesis invents makes a DNS query or a connection off this machine. IP
 * literals and localhost go through as usual (the fuzz's targets are rewritten to the local
 * fixture server by test/fuzz/hooks.py; this is the second line).
 */
'use strict';
const dns = require('node:dns');
const net = require('node:net');
const { syncBuiltinESMExports } = require('node:module');

const local = (host) => {
  const name = String(host).replace(/\.$/, '').toLowerCase();
  return net.isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost');
};
const notFound = (hostname) => Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });

const lookup = dns.lookup;
dns.lookup = function offlineLookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (local(hostname)) return lookup.call(dns, hostname, options, callback);
  process.nextTick(cb, notFound(hostname));
  return {};
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async function offlinePromisesLookup(hostname, options) {
  if (local(hostname)) return promisesLookup.call(dns.promises, hostname, options);
  throw notFound(hostname);
};
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveTxt', 'resolveNs', 'resolveSrv', 'resolvePtr', 'resolveNaptr', 'resolveSoa', 'reverse']) {
  dns[name] = (hostname, ...rest) => process.nextTick(rest[rest.length - 1], notFound(hostname));
  dns.promises[name] = async (hostname) => {
    throw notFound(hostname);
  };
}
syncBuiltinESMExports();
