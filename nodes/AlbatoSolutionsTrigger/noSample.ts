import { NodeOperationError } from 'n8n-workflow';

/**
 * "Fetch Test Event" found nothing of one event kind (installations or runs). With both kinds
 * chosen, the poll (poll.ts) fails only when neither has a sample.
 */
export class NoSampleError extends NodeOperationError {}
