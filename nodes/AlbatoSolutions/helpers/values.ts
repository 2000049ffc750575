/** Kept for existing importers: the readers live in shapes.ts, the one place that knows the service's shapes. */
export { holdsList, isObject, sameId } from './shapes';
