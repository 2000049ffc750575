/**
 * Which helper the credentials' tests (the nodes' `testedBy` functions) may send with: n8n-core's
 * CredentialTestContext, the `this` n8n gives them, offers `request` and no `httpRequest`, so the
 * lint's replacement for the deprecated `request` cannot be used there. The day it offers
 * `httpRequest`, this fails: switch nodes/shared/methods/credentialTest.ts to it (with
 * `returnFullResponse` and `ignoreHttpStatusErrors`).
 */
import { CredentialTestContext } from 'n8n-core';

it("n8n's credential test context offers request, and no httpRequest", () => {
	const helpers = new CredentialTestContext().helpers as unknown as Record<string, unknown>;
	expect(typeof helpers.request).toBe('function');
	expect(helpers.httpRequest).toBeUndefined();
	expect(helpers.httpRequestWithAuthentication).toBeUndefined();
});
