/**
 * What a run is, pure: codes as Albato's page shows them (1), the emulator's 0 and 2, and statuses
 * sent as words, which must never read as succeeded unless they say so.
 */
import type { IDataObject } from 'n8n-workflow';

import { failedStepOf, runOutcome, stepOutcome } from '../../nodes/shared/readers/runs';

const ok = { status: 1, error: null };
const run = (status: unknown, steps: IDataObject[] = [ok]) => ({ status, steps }) as IDataObject;

describe('runOutcome', () => {
	it.each([
		[1, 'succeeded'],
		['1', 'succeeded'],
		[0, 'inProgress'],
		[2, 'failed'],
		['success', 'succeeded'],
		['Completed', 'succeeded'],
		['processing', 'inProgress'],
		['IN_PROGRESS', 'inProgress'],
		['in progress', 'inProgress'],
		['queued', 'inProgress'],
		['error', 'failed'],
		['Failed', 'failed'],
		['new', 'inProgress'],
		['Retrying', 'inProgress'],
		['timed_out', 'failed'],
		['cancelled', 'failed'],
		['paused-by-user', 'unknown'],
		['who knows', 'unknown'],
	])('status %j reads as %s', (status, outcome) => expect(runOutcome(run(status))).toBe(outcome));

	it('a failing step fails a run whose status says succeeded, in codes or words', () => {
		expect(runOutcome(run('success', [ok, { status: 'error', error: null }]))).toBe('failed');
		expect(runOutcome(run(1, [ok, { status: 1, error: 'Timeout' }]))).toBe('failed');
	});

	it('a status it cannot read leaves it to the steps: one still going keeps the run going', () => {
		expect(runOutcome(run('odd', [ok, { status: 0, error: null }]))).toBe('inProgress');
		expect(runOutcome(run('odd', [ok, { status: 'running', error: null }]))).toBe('inProgress');
		expect(runOutcome(run('odd', [ok, { status: 2, error: null }]))).toBe('failed');
		expect(runOutcome(run('odd', [ok]))).toBe('unknown');
	});

	it('a run still going stays in progress even with a failing step', () => {
		expect(runOutcome(run('processing', [{ status: 'error', error: 'x' }]))).toBe('inProgress');
	});

	it('without a status, the steps decide; a step status that cannot be read is unknown', () => {
		expect(runOutcome(run(undefined, [ok, { status: 'success', error: null }]))).toBe('succeeded');
		expect(runOutcome(run(null, [ok, { status: 'running', error: null }]))).toBe('inProgress');
		expect(runOutcome(run('', [ok, { status: 'hmm', error: null }]))).toBe('unknown');
		expect(runOutcome(run(undefined, []))).toBe('unknown');
		expect(runOutcome(run('   ', [ok]))).toBe('succeeded');
	});

	it("a step's empty error is no error", () => {
		for (const error of [null, undefined, '', []])
			expect(runOutcome(run(1, [ok, { status: 1, error }]))).toBe('succeeded');
		expect(runOutcome(run(1, [ok, { status: 1, error: ['Timeout'] }]))).toBe('failed');
	});
});

describe('steps', () => {
	it.each([
		[{ status: 'success', error: null }, 'succeeded'],
		[{ status: 'processing', error: null }, 'inProgress'],
		[{ status: 'error', error: null }, 'failed'],
		[{ status: 'success', error: 'boom' }, 'failed'],
		[{ status: 'odd', error: null }, 'unknown'],
		[{ error: null }, 'unknown'],
	])('%j is %s', (step, outcome) => expect(stepOutcome(step)).toBe(outcome));

	it('the failed step: an error first, then a failing status', () => {
		const byStatus = { id: 1, status: 'failed', error: null };
		const byError = { id: 2, status: 1, error: 'boom' };
		expect(failedStepOf([ok, byStatus, byError])).toBe(byError);
		expect(failedStepOf([ok, byStatus])).toBe(byStatus);
		expect(failedStepOf([ok])).toBeUndefined();
	});
});
