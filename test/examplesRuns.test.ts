/**
 * The issue-22 examples start from n8n's own nodes (Webhook, Schedule, Send Email), which only real
 * n8n has: `npm run e2e:n8n` runs them there. Here: every Albato node acts as an end user, with
 * parameters our nodes really have; the alert's mail node and the webhook's secret are
 * placeholders.
 */
import { join } from 'path';

import { readExample } from '../harness/examples';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';

const known = {
	'n8n-nodes-albato-solutions.albatoSolutions': new AlbatoSolutions().description.properties,
	'n8n-nodes-albato-solutions.albatoSolutionsTrigger': new AlbatoSolutionsTrigger().description
		.properties,
} as Record<string, Array<{ name: string }>>;

it.each([
	['failed-runs-alert', 1],
	['customer-offboarding', 3],
	['runs-sweep', 2],
])(
	'examples/%s.workflow.json: %i Albato nodes, in partner mode, with real parameters',
	(name, count) => {
		const workflow = readExample(join(__dirname, '..', 'examples', `${name}.workflow.json`));
		const albato = workflow.nodes.filter((node) => node.type in known);
		expect(albato).toHaveLength(count);
		for (const node of albato) {
			expect([node.name, node.parameters?.authentication]).toEqual([node.name, 'partnerApi']);
			const names = new Set(known[node.type].map((property) => property.name));
			for (const parameter of Object.keys(node.parameters ?? {}).filter((p) => p !== 'pollTimes'))
				expect([node.name, parameter, names.has(parameter)]).toEqual([node.name, parameter, true]);
		}
		const text = JSON.stringify(workflow);
		expect(text).not.toMatch(/eyJhbGci|masterToken/);
		if (name === 'failed-runs-alert')
			expect(
				workflow.nodes.find((node) => node.type === 'n8n-nodes-base.emailSend')?.disabled,
			).toBe(true);
		if (name === 'customer-offboarding') {
			expect(
				workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')?.parameters
					?.authentication,
			).toBe('headerAuth');
			expect(
				albato.find((node) => node.parameters?.operation === 'delete')?.parameters?.confirmDelete,
			).toBe(true);
		}
	},
);
