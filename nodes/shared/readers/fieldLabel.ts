/**
 * A field of the Field Values mapper is shown as "<label> (now: <current value>)": the label the
 * user picked it by, and what it holds now. Both directions live here, so the format is written
 * once.
 */
export function mapperFieldName(label: string, now: string): string {
	return `${label} (now: ${now})`;
}

/** The label back from a mapper field's name (the name as is when it is not in that format). */
export function labelOfMapperField(displayName: string): string {
	const match = /^(.*?) \(now: .*\)$/s.exec(displayName);
	return match ? match[1] : displayName;
}
