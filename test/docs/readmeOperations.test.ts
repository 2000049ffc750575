/**
 * The README's Operations table is the node's own description, rendered: it lists every operation
 * and event the nodes offer, each row links to a heading that exists, and the intro's counts agree.
 */
import {
	GUIDE,
	blockOf,
	githubAnchor,
	headingOf,
	inventory,
	renderBlock,
} from '../../scripts/readme-operations';
import { anchorsOf, read } from './markdown';

const readme = read('README.md');
const nodes = inventory();

describe("the README's Operations table", () => {
	test('is what the description renders (run npm run docs:operations)', () => {
		expect(blockOf(readme)).toBe(renderBlock(nodes));
	});

	test('reads every resource, operation and event of the nodes, each with its one line', () => {
		expect(new Set(nodes.operations.map((row) => row.resource)).size).toBe(nodes.resources);
		expect(nodes.operations.filter((row) => row.summary === '')).toEqual([]);
		expect(nodes.events.length).toBeGreaterThan(0);
	});

	test(`links every operation to its heading in ${GUIDE}`, () => {
		const anchors = anchorsOf(read(GUIDE));
		const missing = nodes.operations
			.map((row) => githubAnchor(headingOf(row)))
			.filter((anchor) => !anchors.has(anchor));
		expect(missing).toEqual([]);
	});

	test("the intro's counts are the description's", () => {
		const intro = readme.slice(0, readme.indexOf('## '));
		expect(intro).toContain(
			`${nodes.operations.length} operations on ${nodes.resources} resources`,
		);
		expect(intro).toContain(`**Albato Solutions Trigger**: ${nodes.events.length} events`);
	});

	test('GitHub anchors: punctuation dropped, spaces to hyphens', () => {
		expect(githubAnchor('Installation → Ensure')).toBe('installation--ensure');
		expect(githubAnchor("Run → Get New in queue mode (n8n's limit)")).toBe(
			'run--get-new-in-queue-mode-n8ns-limit',
		);
		expect(githubAnchor('Fleets: 100, 1,000 and 10,000 customers')).toBe(
			'fleets-100-1000-and-10000-customers',
		);
	});
});
