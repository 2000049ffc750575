/**
 * Names shared by the descriptions and the transport (so descriptions never import the transport).
 */

/** The end user's Access Token credential. */
export const CREDENTIAL_TYPE = 'albatoSolutionsApi';

/** The partner's credential: base URL, partner name, master token. */
export const PARTNER_CREDENTIAL_TYPE = 'albatoPartnerApi';

/** Values of the node's and the trigger's `authentication` parameter. */
export const ACCESS_TOKEN = 'accessToken';
export const PARTNER_API = 'partnerApi';
