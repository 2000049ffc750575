// A small OpenAI-compatible model server on loopback, for driving n8n's AI Agent without a real
// model. It is scripted: for each request a `decide(conversation)` function returns either a tool
// call or a final text, and the server answers in the API's shape.
//
// It speaks what n8n's OpenAI chat model node may call: `POST /chat/completions` (plain and
// streamed), `POST /responses` (the Responses API, plain and streamed) and `GET /models`, each
// also under `/v1`. Every request is kept (`requests`), so a test can read the tool schema n8n sent.

import { randomUUID } from 'node:crypto';
import http from 'node:http';

/**
 * The request, reduced to what a script needs:
 * `{ api, task, tools: [{ name, description, parameters }], steps: [{ name, args, output }] }`.
 * `task` is the first user message; `steps` are the tool calls made so far, with their results.
 */
function conversation(api, body) {
	const tools = (body.tools ?? []).map((tool) =>
		tool.function
			? {
					name: tool.function.name,
					description: tool.function.description,
					parameters: tool.function.parameters,
				}
			: { name: tool.name, description: tool.description, parameters: tool.parameters },
	);
	const { task, steps } = api === 'chat' ? chatTurns(body) : responseTurns(body);
	return { api, task: task ?? '', tools, steps };
}

const textOf = (content) =>
	typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');

/** The Chat Completions API's messages: the first user message, and each tool call with its result. */
function chatTurns(body) {
	let task;
	const calls = new Map();
	const steps = [];
	for (const message of body.messages ?? []) {
		if (message.role === 'user' && task === undefined) task = textOf(message.content);
		for (const call of message.tool_calls ?? [])
			calls.set(call.id, { name: call.function.name, args: parseArgs(call.function.arguments) });
		if (message.role === 'tool')
			steps.push({ ...calls.get(message.tool_call_id), output: textOf(message.content) });
	}
	return { task, steps };
}

/** The Responses API's input: the first user entry, and each function call with its output. */
function responseTurns(body) {
	let task;
	const calls = new Map();
	const steps = [];
	const input =
		typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
	for (const entry of input) {
		if (entry.role === 'user' && task === undefined) task = textOf(entry.content);
		if (entry.type === 'function_call')
			calls.set(entry.call_id, { name: entry.name, args: parseArgs(entry.arguments) });
		if (entry.type === 'function_call_output')
			steps.push({
				...calls.get(entry.call_id),
				output: typeof entry.output === 'string' ? entry.output : JSON.stringify(entry.output),
			});
	}
	return { task, steps };
}

function parseArgs(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function chatCompletion(body, answer) {
	const message = answer.toolCall
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: `call_${randomUUID().slice(0, 8)}`,
						type: 'function',
						function: {
							name: answer.toolCall.name,
							arguments: JSON.stringify(answer.toolCall.args),
						},
					},
				],
			}
		: { role: 'assistant', content: answer.text };
	return {
		id: `chatcmpl-${randomUUID()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [
			{ index: 0, message, logprobs: null, finish_reason: answer.toolCall ? 'tool_calls' : 'stop' },
		],
		usage,
	};
}

/** The same answer as server-sent chunks. */
function chatChunks(body, answer) {
	const full = chatCompletion(body, answer);
	const base = {
		id: full.id,
		object: 'chat.completion.chunk',
		created: full.created,
		model: full.model,
	};
	const message = full.choices[0].message;
	const delta = message.tool_calls
		? {
				role: 'assistant',
				content: null,
				tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
			}
		: { role: 'assistant', content: message.content };
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{
			...base,
			choices: [{ index: 0, delta: {}, finish_reason: full.choices[0].finish_reason }],
			usage,
		},
	];
}

function response(body, answer) {
	const output = answer.toolCall
		? [
				{
					type: 'function_call',
					id: `fc_${randomUUID().slice(0, 8)}`,
					call_id: `call_${randomUUID().slice(0, 8)}`,
					name: answer.toolCall.name,
					arguments: JSON.stringify(answer.toolCall.args),
					status: 'completed',
				},
			]
		: [
				{
					type: 'message',
					id: `msg_${randomUUID().slice(0, 8)}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text: answer.text, annotations: [] }],
				},
			];
	return {
		id: `resp_${randomUUID()}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: body.model,
		output,
		output_text: answer.text ?? '',
		parallel_tool_calls: false,
		tools: body.tools ?? [],
		usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
	};
}

/** The Responses API's streamed events for one finished response. */
function responseEvents(body, answer) {
	const done = response(body, answer);
	const item = done.output[0];
	const events = [
		{ type: 'response.created', response: { ...done, status: 'in_progress', output: [] } },
		{
			type: 'response.output_item.added',
			output_index: 0,
			item: { ...item, ...(item.type === 'message' ? { content: [] } : { arguments: '' }) },
		},
	];
	if (item.type === 'message') {
		events.push({
			type: 'response.output_text.delta',
			item_id: item.id,
			output_index: 0,
			content_index: 0,
			delta: answer.text,
		});
		events.push({
			type: 'response.output_text.done',
			item_id: item.id,
			output_index: 0,
			content_index: 0,
			text: answer.text,
		});
	} else {
		events.push({
			type: 'response.function_call_arguments.delta',
			item_id: item.id,
			output_index: 0,
			delta: item.arguments,
		});
		events.push({
			type: 'response.function_call_arguments.done',
			item_id: item.id,
			output_index: 0,
			arguments: item.arguments,
		});
	}
	events.push({ type: 'response.output_item.done', output_index: 0, item });
	events.push({ type: 'response.completed', response: done });
	return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}

const MODELS = {
	object: 'list',
	data: ['gpt-4o-mini', 'gpt-4.1-mini'].map((id) => ({
		id,
		object: 'model',
		created: 0,
		owned_by: 'fake',
	})),
};

function sendJson(res, status, value) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(value));
}

function sendEvents(res, events, withDone) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const event of events)
		res.write(`${event.type ? `event: ${event.type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
	if (withDone) res.write('data: [DONE]\n\n');
	res.end();
}

/** One request as the log keeps it: method, path (without /v1), JSON body, whether it was authorised. */
async function entryOf(req) {
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	const raw = Buffer.concat(chunks).toString();
	return {
		method: req.method,
		path: req.url.split('?')[0].replace(/^\/v1(?=\/)/, ''),
		body: raw ? JSON.parse(raw) : undefined,
		authorization: Boolean(req.headers.authorization),
	};
}

/** Answers one request: the model list, or the model's next turn as `decide` chooses it. */
async function answer(req, res, { decide, log, requests }) {
	const entry = await entryOf(req);
	const { path, body } = entry;
	requests.push(entry);
	try {
		if (req.method === 'GET' && path === '/models') return sendJson(res, 200, MODELS);
		const api =
			path === '/chat/completions' ? 'chat' : path === '/responses' ? 'responses' : undefined;
		if (req.method !== 'POST' || !api)
			return sendJson(res, 404, {
				error: { message: `fake model server: no ${req.method} ${path}` },
			});
		entry.conversation = conversation(api, body);
		entry.answer = await decide(entry.conversation);
		log(
			`${api}: ${entry.conversation.task.slice(0, 60)} → ${entry.answer.toolCall ? `tool ${entry.answer.toolCall.name}(${JSON.stringify(entry.answer.toolCall.args)})` : `"${entry.answer.text}"`}`,
		);
		if (api === 'chat')
			return body.stream
				? sendEvents(res, chatChunks(body, entry.answer), true)
				: sendJson(res, 200, chatCompletion(body, entry.answer));
		return body.stream
			? sendEvents(res, responseEvents(body, entry.answer), false)
			: sendJson(res, 200, response(body, entry.answer));
	} catch (error) {
		entry.error = error.message;
		return sendJson(res, 500, {
			error: { message: `fake model server: ${error.message}`, type: 'server_error' },
		});
	}
}

/**
 * Start the server. `decide(conversation)` returns `{ toolCall: { name, args } }` or `{ text }`
 * (it may throw: the client then gets a 500 with the message). Returns
 * `{ baseUrl, requests, close() }`; `requests` holds `{ method, path, body, conversation?, answer? }`.
 */
export async function startFakeOpenAi(decide, { log = () => {} } = {}) {
	const requests = [];
	const server = http.createServer((req, res) => answer(req, res, { decide, log, requests }));
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
