// The AI Agent test's scripted model (what the fake model server answers at each turn) and its check
// of the tool schema the model was shown (agent.mjs).

// ---- the scripted model ---------------------------------------------------------------------

/** Every object (at any depth) of a tool's JSON output. */
export function objectsIn(text) {
	let value;
	try {
		value = JSON.parse(text);
	} catch {
		return [];
	}
	const found = [];
	const walk = (v) => {
		if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === 'object') {
			found.push(v);
			Object.values(v).forEach(walk);
		} else if (typeof v === 'string' && /^[[{]/.test(v.trim()))
			objectsIn(v).forEach((o) => found.push(o));
	};
	walk(value);
	return found;
}

/** The one parameter of a tool whose name or description matches `pattern`; throws otherwise. */
function parameterFor(tool, pattern, what) {
	const properties = tool.parameters?.properties ?? {};
	const keys = Object.keys(properties).filter((key) =>
		pattern.test(`${key} ${properties[key].description ?? ''}`),
	);
	if (keys.length !== 1)
		throw new Error(
			`cannot tell which parameter of ${tool.name} is ${what}: ${JSON.stringify(properties)}`,
		);
	return keys[0];
}

/**
 * One turn of the model: the next tool call, or the final answer. Stateless: everything comes from
 * the conversation n8n sends (the task, the tools, the tool calls so far and their results).
 *
 * For the pause, the model first passes the installation's title, as a model may when a parameter
 * is only called "Installation"; the node's error must then tell it to send the ID instead.
 */
export function decide({ task, tools, steps }) {
	const tool = (pattern) => {
		const found = tools.find((t) => pattern.test(t.name));
		if (!found)
			throw new Error(`no tool matching ${pattern} among ${tools.map((t) => t.name).join(', ')}`);
		return found;
	};
	const customer = /globex/i.test(task) ? 'Globex' : /acme/i.test(task) ? 'ACME' : undefined;
	if (!customer) throw new Error(`unexpected task: ${task}`);
	if (steps.length === 0) {
		const list = tool(/list/i);
		return {
			toolCall: {
				name: list.name,
				args: { [parameterFor(list, /title/i, 'the title filter')]: customer },
			},
		};
	}
	const installation = objectsIn(steps[0].output).find(
		(o) => o.id !== undefined && String(o.title ?? '').includes(customer),
	);
	if (!installation)
		throw new Error(
			`the list tool returned no installation for ${customer}: ${steps[0].output.slice(0, 500)}`,
		);
	return /pause/i.test(task)
		? pauseTurn(tool(/pause/i), installation, steps)
		: readTurn(tool(/field|read/i), installation, steps);
}

/** Pausing: first by title (the tool must answer that it needs the ID), then by ID, then the answer. */
function pauseTurn(next, installation, steps) {
	const key = parameterFor(next, /installation/i, 'the installation');
	if (steps.length === 1)
		return { toolCall: { name: next.name, args: { [key]: installation.title } } };
	if (steps.length === 2) {
		if (!/give its ID/.test(steps[1].output))
			throw new Error(
				`a title as "${key}" did not get an error that asks for the ID: ${steps[1].output.slice(0, 500)}`,
			);
		return { toolCall: { name: next.name, args: { [key]: String(installation.id) } } };
	}
	const result = steps.at(-1).output;
	const paused = objectsIn(result).find((o) => String(o.id) === String(installation.id));
	if (!paused)
		throw new Error(`the pause tool did not return the installation: ${result.slice(0, 500)}`);
	return {
		text: `Paused "${paused.title}" (installation ${paused.id}); its status is now ${paused.status === 0 ? 'paused' : paused.status}.`,
	};
}

/** Reading a field: by ID, then the answer with the subject's value. */
function readTurn(next, installation, steps) {
	const key = parameterFor(next, /installation/i, 'the installation');
	if (steps.length === 1)
		return { toolCall: { name: next.name, args: { [key]: String(installation.id) } } };
	const result = steps.at(-1).output;
	const subject = objectsIn(result).find((o) => o.name === 'subject');
	if (!subject) throw new Error(`no subject field in the tool output: ${result.slice(0, 500)}`);
	return {
		text: `The email subject in ACME's installation (${installation.id}) is "${subject.value}".`,
	};
}

// ---- checks ---------------------------------------------------------------------------------

export function checkSchema(checks, modelRequests, toolNames) {
	const first = modelRequests.find((r) => r.conversation?.tools.length);
	const tools = first?.conversation.tools ?? [];
	checks.equal(
		'n8n sent our 4 tool nodes to the model',
		tools.map((t) => t.name).sort(),
		toolNames.map((n) => n.replaceAll(' ', '_')).sort(),
	);
	console.log('    tool schema n8n sent to the model:');
	for (const tool of tools) {
		const properties = Object.entries(tool.parameters?.properties ?? {}).map(
			([key, p]) => `${key}: ${p.type}${p.description ? ` "${p.description}"` : ''}`,
		);
		console.log(`      ${tool.name} — "${tool.description}" (${properties.join(', ')})`);
	}
	checks.ok(
		'every tool has a description that names the action and the node',
		tools.every((t) => /Albato Solutions/.test(t.description ?? '')),
		JSON.stringify(tools.map((t) => t.description)),
	);
	for (const tool of tools.filter((t) => !/list/i.test(t.name))) {
		const keys = Object.keys(tool.parameters?.properties ?? {});
		checks.ok(
			`${tool.name}: its one parameter says it is the installation ID`,
			keys.length === 1 &&
				/installation.*id|id.*installation/i.test(
					`${keys[0]} ${tool.parameters.properties[keys[0]].description ?? ''}`,
				),
			JSON.stringify(tool.parameters),
		);
	}
	return tools;
}
