/**
 * Installation → Upgrade's value map, a pure unit: an automation matched by its title, else its
 * place; a step by its title, else its place; a field by its code or its rename. Every source value
 * ends mapped or unmapped (with the reason), every target field without a value is kept.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	mapValues,
	type Side,
} from '../../../nodes/AlbatoSolutions/actions/installation/upgrade/mapValues';

type Fields = Record<string, unknown>;
/** An installation with automations { title: { step title: fields } }, ids counted from `base`. */
function side(base: number, automations: Record<string, Record<string, Fields>>): Side {
	let id = base;
	const bundles: IDataObject = {};
	const records = new Map<number, IDataObject[]>();
	for (const [title, steps] of Object.entries(automations)) {
		const bundleId = ++id;
		const stepList = Object.entries(steps).map(([stepTitle, fields]) => ({
			id: ++id,
			title: stepTitle,
			fields,
		}));
		bundles[String(bundleId)] = {
			id: bundleId,
			title,
			steps: stepList.map(({ id: stepId, title: stepTitle }) => ({ id: stepId, title: stepTitle })),
		};
		records.set(
			bundleId,
			stepList.map((step) => ({
				id: step.id,
				bundleId,
				data: Object.entries(step.fields).map(([name, value]) => ({ name, label: name, value })),
			})),
		);
	}
	return { id: base, installation: { id: base, bundles }, records };
}

it('matches a renamed automation by its place, steps by title before place, fields by code or rename', () => {
	const source = side(100, {
		Welcome: { Trigger: { source: 'web' }, Email: { subject: 'Hi', gone: true } },
		Tagging: { Tag: { tag: 'vip' } },
	});
	const target = side(200, {
		'Welcome v2': { Email: { mailSubject: 'Default' }, Trigger: { source: 'web' } },
		Tagging: { Tag: { tag: 'customer', extra: 1 } },
	});
	const map = mapValues(source, target, { subject: 'mailSubject' });
	expect(
		map.mapped.map((m) => [m.step, m.code, m.to.automation, m.to.step, m.to.code, m.differs]),
	).toEqual([
		['Trigger', 'source', 'Welcome v2', 'Trigger', 'source', false],
		['Email', 'subject', 'Welcome v2', 'Email', 'mailSubject', true],
		['Tag', 'tag', 'Tagging', 'Tag', 'tag', true],
	]);
	expect(map.unmapped).toEqual([
		{
			automation: 'Welcome',
			step: 'Email',
			code: 'gone',
			label: 'gone',
			value: true,
			reason: 'step "Email" has no field "gone"',
		},
	]);
	expect(map.kept).toEqual([{ automation: 'Tagging', step: 'Tag', code: 'extra', value: 1 }]);
	// Only what differs is written, each at its home.
	expect(map.changes.map((c) => [c.stepId, c.code, c.value, c.from])).toEqual([
		[202, 'mailSubject', 'Hi', 'Default'],
		[205, 'tag', 'vip', 'customer'],
	]);
});

it('an automation or a step with no counterpart at its title or place: each value said with why', () => {
	const source = side(100, { A: { One: { a: 1 }, Two: { b: 2 } }, B: { Only: { c: 3 } } });
	const target = side(200, { A: { One: { a: 1 } } });
	const map = mapValues(source, target, {});
	expect(map.unmapped.map((u) => [u.code, u.reason])).toEqual([
		['b', 'automation "A" has no step "Two" (nor one at its place)'],
		['c', 'the target has no automation "B" (nor one at its place)'],
	]);
	expect(map.changes).toEqual([]);
});

it("a place already another automation's or step's by its title is not taken by place", () => {
	// "Welcome" was renamed and moved: place 0 of the target is "Tagging", which is Tagging's home.
	const source = side(100, {
		Welcome: { Email: { subject: 'Hi' } },
		Tagging: { Tag: { tag: 'vip' } },
	});
	const target = side(200, {
		Tagging: { Tag: { tag: 'vip' } },
		'Welcome v2': { Email: { subject: 'Hi' } },
	});
	const map = mapValues(source, target, {});
	expect(map.mapped.map((m) => [m.automation, m.to.automation])).toEqual([['Tagging', 'Tagging']]);
	expect(map.unmapped.map((u) => [u.automation, u.code, u.reason])).toEqual([
		['Welcome', 'subject', 'the target has no automation "Welcome" (nor one at its place)'],
	]);
});
