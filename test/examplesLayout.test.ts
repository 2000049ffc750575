/**
 * What a new partner sees when opening an example: every Albato node at the node's latest version,
 * no note lying over a node, and notes that say where Preview is (Request Options → Add Option).
 */
import { readdirSync } from 'fs';
import { join } from 'path';

import { readExample } from '../harness/examples';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';

const DIR = join(__dirname, '..', 'examples');
const files = readdirSync(DIR).filter((file) => file.endsWith('.workflow.json'));
const latest = (versions: number | number[]) =>
	Array.isArray(versions) ? Math.max(...versions) : versions;
const LATEST: Record<string, number> = {
	'n8n-nodes-albato-solutions.albatoSolutions': new AlbatoSolutions().description.defaultVersion!,
	'n8n-nodes-albato-solutions.albatoSolutionsTool': new AlbatoSolutions().description
		.defaultVersion!,
	'n8n-nodes-albato-solutions.albatoSolutionsTrigger': latest(
		new AlbatoSolutionsTrigger().description.version,
	),
};
/** The canvas box of a node (n8n draws a node about 100 × 100 from its position). */
const NODE_SIZE = 100;

describe.each(files)('examples/%s', (file) => {
	const workflow = readExample(join(DIR, file));

	it("opens every Albato node at the node's latest version", () => {
		for (const node of workflow.nodes.filter((n) => n.type in LATEST))
			expect([node.name, node.typeVersion]).toEqual([node.name, LATEST[node.type]]);
	});

	it('has no note lying over a node', () => {
		const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		for (const note of notes) {
			const [x, y] = note.position ?? [0, 0];
			const width = Number(note.parameters?.width ?? 240);
			const height = Number(note.parameters?.height ?? 160);
			const under = workflow.nodes.filter((node) => {
				if (node.type === 'n8n-nodes-base.stickyNote') return false;
				const [nx, ny] = node.position ?? [0, 0];
				return nx + NODE_SIZE > x && nx < x + width && ny + NODE_SIZE > y && ny < y + height;
			});
			expect([note.name, under.map((node) => node.name)]).toEqual([note.name, []]);
		}
	});

	it('a note that mentions Preview says where it is: Request Options → Add Option → Preview', () => {
		for (const note of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote')) {
			const content = String(note.parameters?.content ?? '');
			if (/\*Preview\*/.test(content))
				expect(content).toMatch(/\*Request Options\* → \*Add Option\* → \*Preview\*/);
		}
	});
});

it('usage-topup tells a new partner to preview the first run', () => {
	const note = readExample(join(DIR, 'usage-topup.workflow.json'))
		.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
		.map((node) => String(node.parameters?.content))
		.join('\n');
	expect(note).toMatch(/\*\*Preview first:\*\* in \*\*Set Plan\*\* and \*\*Add Transactions\*\*/);
});
