/**
 * A trigger saved before its reads were bounded polls on. `runVolume.saved.json` is the static data
 * the trigger of commit 6a00fca (which read every page of the runs) wrote at its first poll, every
 * run and automation event chosen, on the run stream of test/support/triggerVolume.ts at T0: two
 * baselines of 500 ended runs each, with a floor, `{base}` standing for the emulator's URL. Today's
 * trigger reads it as its own: from its first poll it reads one page, and over two simulated days
 * it reports every run once, misses none, and each incident once.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	control,
	DAY,
	nothingSaid,
	pollSpan,
	pollTimes,
	setClock,
	STREAM,
	T0,
	useVolumeEmulator,
	verdict,
} from '../support/triggerVolume';
import saved from './runVolume.saved.json';

const ctx = useVolumeEmulator();

const NODE = 'node:Albato Solutions Trigger';

it('static data of the trigger that read every page: each run once, none missed, one page a poll', async () => {
	const { emu } = ctx;
	await setClock(emu, T0);
	await control(emu, 'runs/stream', STREAM);
	const staticData = JSON.parse(
		JSON.stringify(saved).split('{base}').join(emu.baseUrl),
	) as IDataObject;
	const stored = staticData[NODE] as IDataObject;
	const runEvents = stored.runEvents as IDataObject;
	expect(Object.keys(runEvents.known as object)).toHaveLength(500);
	expect(runEvents.floor).toEqual(expect.any(Number));
	expect(
		Object.keys(((stored.incidentEvents as IDataObject).runs as IDataObject).known as object),
	).toHaveLength(500);

	const said = nothingSaid();
	const next = pollTimes();
	const weeks = await pollSpan({ emu, staticData, said }, [next(T0), T0 + 2 * DAY], next, 1);
	const found = await verdict(emu, said, [T0, emu.clock.now()]);
	expect(weeks.get(1)!.polls).toBeGreaterThan(50);
	expect(found.runs).toBeGreaterThan(150);
	expect([found.twice, found.missed, found.invented]).toEqual([0, [], []]);
	expect([...said.failed].sort()).toEqual([...found.failed].sort());
	expect([found.incidentsTwice, found.incidentsMissed, found.incidentsInvented]).toEqual([
		0,
		[],
		[],
	]);
	// The baselines keep their shape and their bound.
	const after = staticData[NODE] as IDataObject;
	expect(Object.keys(after).sort()).toEqual(Object.keys(stored).sort());
	expect(Object.keys((after.runEvents as IDataObject).known as object)).toHaveLength(500);
}, 120_000);
