/** Fixtures: the partners whose connections (credentials) end users create, with their fields. */
export interface PartnerField {
	id: string;
	/** 0 string, 3 password/secret, 10 choice (with allowedValues); the metaExtraTypes variant adds 1, 5, 7. */
	type: 0 | 1 | 3 | 5 | 7 | 10;
	label: string;
	required: boolean;
	allowedValues?: Record<string, string>;
}

export const PARTNERS: Record<number, { title: string; fields: PartnerField[] }> = {
	201: {
		title: 'Acme CRM',
		fields: [
			{ id: 'apiUrl', type: 0, label: 'API URL', required: true },
			{ id: 'apiKey', type: 3, label: 'API key', required: true },
			{
				id: 'region',
				type: 10,
				label: 'Region',
				required: true,
				allowedValues: { eu: 'Europe', us: 'United States' },
			},
		],
	},
	202: {
		title: 'Chatly',
		fields: [
			{ id: 'token', type: 3, label: 'Bot token', required: true },
			{ id: 'account', type: 0, label: 'Account', required: false },
		],
	},
};
