/**
 * Loads the built package exactly as n8n loads a community package (n8n-core's
 * PackageDirectoryLoader reading package.json's `n8n` block and dist/), and checks what n8n would
 * find. Needs `npm run build` (the test command builds first).
 */
import { existsSync, readFileSync } from 'fs';
import { PackageDirectoryLoader } from 'n8n-core';
import { join } from 'path';

const root = join(__dirname, '..', '..');

describe('the built package, as n8n loads it', () => {
	let loader: PackageDirectoryLoader;
	beforeAll(async () => {
		expect(
			existsSync(join(root, 'dist', 'nodes', 'AlbatoSolutions', 'AlbatoSolutions.node.js')),
		).toBe(true);
		loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
	});

	it('finds the node, the trigger and the credential under the package name', () => {
		expect(loader.packageName).toBe('n8n-nodes-albato-solutions');
		expect(Object.keys(loader.nodeTypes).sort()).toEqual([
			'albatoSolutions',
			'albatoSolutionsTrigger',
		]);
		expect(Object.keys(loader.credentialTypes)).toEqual(['albatoSolutionsApi', 'albatoPartnerApi']);
		// n8n prefixes the names with the package name when it registers them.
		expect(loader.types.nodes.map((node) => `${loader.packageName}.${node.name}`).sort()).toEqual([
			'n8n-nodes-albato-solutions.albatoSolutions',
			'n8n-nodes-albato-solutions.albatoSolutionsTrigger',
		]);
	});

	it('resolves light and dark icons to files that exist in dist', () => {
		const described = [...loader.types.nodes, ...loader.types.credentials];
		expect(described.length).toBeGreaterThanOrEqual(4); // two nodes, two credentials
		for (const description of described) {
			const icons = (description as { iconUrl?: { light: string; dark: string } }).iconUrl;
			expect(icons).toBeDefined();
			for (const url of [icons!.light, icons!.dark]) {
				const file = url.replace(/^icons\/n8n-nodes-albato-solutions\//, '');
				expect(existsSync(join(root, file))).toBe(true);
			}
		}
	});

	it('reads the codex and keeps the node usable as a tool, the trigger not', () => {
		const [node, trigger] = [...loader.types.nodes].sort((a, b) => a.name.localeCompare(b.name));
		expect((node as { codex?: { categories?: string[] } }).codex?.categories).toContain(
			'Development',
		);
		expect(node.usableAsTool).toBe(true);
		expect(trigger.usableAsTool).toBeFalsy();
		expect(trigger.polling).toBe(true);
	});

	it('ships only dist, with no runtime dependencies and n8n-workflow as a peer', () => {
		const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
		expect(pkg.files).toEqual(['dist', 'CHANGELOG.md']); // README, LICENSE and package.json are always packed
		expect(pkg.main).toBeUndefined();
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.keywords).toContain('n8n-community-node-package');
	});
});
