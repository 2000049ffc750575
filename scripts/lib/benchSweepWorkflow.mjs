// The workflow bench-fleet-n8n.mjs sweeps with (Run → Get New over every customer, in one execution),
// its node's name and its partner credential.

export const NODE = 'New failed runs';
export const CREDENTIAL = {
	id: 'BenchPartner1',
	name: 'Albato Partner (bench)',
	type: 'albatoPartnerApi',
};

// ---- the workflow ------------------------------------------------------------------------------------

export function sweepWorkflow(ids) {
	const chain = (to) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id: 'BenchFleetSweep1',
		name: `Bench: Run → Get New over ${ids.length} customers`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({ customers: ids.map((customerId) => ({ customerId })) }),
					options: {},
				},
				name: 'Customers',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
			},
			{
				parameters: { fieldToSplitOut: 'customers', options: {} },
				name: 'One item per customer',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
			},
			{
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customerId }}',
					resource: 'run',
					operation: 'getNew',
					filters: { status: 'failed' },
				},
				name: NODE,
				type: 'n8n-nodes-albato-solutions.albatoSolutions',
				typeVersion: 1,
				position: [600, 0],
				credentials: { albatoPartnerApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
				onError: 'continueErrorOutput',
			},
		],
		connections: {
			Start: chain('Customers'),
			Customers: chain('One item per customer'),
			'One item per customer': chain(NODE),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

// ---- the child ---------------------------------------------------------------------------------------
