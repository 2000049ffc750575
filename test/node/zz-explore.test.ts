import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../harness';
import { byId, useEmulator } from './setup';

const ctx = useEmulator();
const node = new AlbatoSolutions();
const lo = (parameters: Record<string, unknown>, credentials?: object) =>
	loadOptionsContext({ nodeType: node, parameters: parameters as never, credentials: (credentials ?? { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } }) as never });

it('explore', async () => {
	const m = node.methods;
	const log = (x: unknown) => console.log(JSON.stringify(x, null, 1));
	log(await m.listSearch.searchSolutions.call(lo({ resource: 'solution', operation: 'getAll' })));
	log(await m.listSearch.searchInstallations.call(lo({ resource: 'installation', operation: 'get' }), 'acme'));
	log(await m.loadOptions.getTemplates.call(lo({ resource: 'installation', operation: 'create', solutionId: byId('list', 101) })));
	log(await m.loadOptions.getBundles.call(lo({ resource: 'bundleData', operation: 'update', installationId: byId('list', 5001) })));
	log(await m.loadOptions.getSteps.call(lo({ resource: 'bundleData', operation: 'update', installationId: byId('list', 5001), bundleId: 7001 })));
	log(await m.resourceMapping.getConnectionSettingsFields.call(lo({ resource: 'installation', operation: 'create', solutionId: byId('list', 101), connectionSettings: { mappingMode: 'defineBelow', value: { crm: 'hubspot', hubspotPipeline: 'sales' } } })));
	log(await m.resourceMapping.getFieldValueFields.call(lo({ resource: 'bundleData', operation: 'update', installationId: byId('list', 5001), bundleId: 7001, stepId: 9001 })));
	log(await m.resourceMapping.getPartnerFields.call(lo({ resource: 'credential', operation: 'create', partnerId: 201 })));
	log(ctx.emu.requests.map((r) => `${r.method} ${r.path}?${r.rawQuery}`));
	try { await m.listSearch.searchSolutions.call(lo({ resource: 'solution', operation: 'getAll' }, {})); } catch (e) { log({ n: (e as Error).constructor.name, m: (e as Error).message, d: (e as { description?: string }).description }); }
	try { await m.listSearch.searchSolutions.call(lo({ resource: 'solution', operation: 'getAll' }, { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token({ expiresInSeconds: -10 }) } })); } catch (e) { log({ n: (e as Error).constructor.name, m: (e as Error).message, d: (e as { description?: string }).description }); }
	ctx.emu.faults.add({ path: '/solution/apps', status: 500 });
	try { await m.listSearch.searchSolutions.call(lo({ resource: 'solution', operation: 'getAll' })); } catch (e) { log({ n: (e as Error).constructor.name, m: (e as Error).message, d: (e as { description?: string }).description }); }
});
