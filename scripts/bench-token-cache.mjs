/**
 * What the end-user token cache costs a worker: heap bytes per cached token, measured.
 *
 *   npm run bench:token-cache [-- --tokens 100000 --token-length 0]
 *
 * Stores `--tokens` tokens the way partner mode keys them (credential id, fingerprint, user id)
 * in the built cache (dist/), with the emulator's session tokens (HS256 JWTs, `sub`, `iat`,
 * `exp`) or, with `--token-length N`, tokens of N characters; prints the heap the cache keeps
 * alive per token and what it counts per token against MAX_BYTES.
 */
import { randomBytes } from 'crypto';
import { createRequire } from 'module';
import { parseArgs } from 'util';

import jwt from 'jsonwebtoken';

const require = createRequire(import.meta.url);
const cache = require('../dist/nodes/shared/transport/tokenCache.js');

const { values } = parseArgs({
	options: {
		tokens: { type: 'string', default: '100000' },
		'token-length': { type: 'string', default: '0' },
	},
});
const tokens = Number(values.tokens);
const tokenLength = Number(values['token-length']);
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

const secret = 'bench-token-cache-secret';
const now = Math.floor(Date.now() / 1000);
const tokenOf = (i) =>
	tokenLength > 0
		? randomBytes(tokenLength).toString('base64url').slice(0, tokenLength) // flat, like a real one
		: jwt.sign({ sub: `end-user-${i}`, iat: now, exp: now + 3600 }, secret, { algorithm: 'HS256' });
const keyOf = (i) => `credential-1\n0123456789abcdef\nend-user-${i}`;

const heap = () => {
	global.gc();
	return process.memoryUsage().heapUsed;
};
// Each key and token is made as it is stored, so the heap it adds is what the cache keeps alive.
const before = heap();
const expiresAt = Date.now() + 3_600_000;
for (let i = 0; i < tokens; i++) cache.storeToken(keyOf(i), tokenOf(i), expiresAt);
const kept = heap() - before;
const counted = cache.forTests.bytes();
console.log(
	JSON.stringify(
		{
			tokens,
			tokenCharacters: tokenOf(0).length,
			keyCharacters: keyOf(0).length,
			heapBytesPerToken: Math.round(kept / tokens),
			countedBytesPerToken: Math.round(counted / tokens),
			maxBytes: cache.MAX_BYTES,
			tokensThatFit: Math.floor(cache.MAX_BYTES / (counted / tokens)),
		},
		null,
		'\t',
	),
);
