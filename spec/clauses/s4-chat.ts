import { defineClauses } from './types.ts';

// §4.15: the streaming agent chat endpoint.
export const s4Chat = defineClauses([
  {
    id: 'chat.stream.path',
    section: '4.15',
    level: 'must',
    summary:
      'POST /v1/api/project-agents/{agentId}/chat talks to a project agent; agentId is a UUID.',
  },
  {
    id: 'chat.auth.bearer-required',
    section: '4.15',
    level: 'must',
    summary: 'Chat requires Authorization: Bearer with a project-user token.',
  },
  {
    id: 'chat.auth.token-scopes-data',
    section: '4.15',
    level: 'must',
    summary: 'The bearer token fixes the organization whose data the agent may query.',
  },
  {
    id: 'chat.body.messages-required',
    section: '4.15',
    level: 'must',
    summary: 'messages, the conversation so far, is mandatory.',
  },
  {
    id: 'chat.body.message-shape',
    section: '4.15',
    level: 'must',
    summary: "Each message is {role: 'user' | 'assistant', content: string}.",
  },
  {
    id: 'chat.body.thread-id-optional',
    section: '4.15',
    level: 'must',
    summary: 'thread_id is an optional string.',
  },
  {
    id: 'chat.thread.keeps-context',
    section: '4.15',
    level: 'must',
    summary: 'Sending the same thread_id again keeps the session: last SQL, chart and data.',
  },
  {
    id: 'chat.thread.new-thread-context',
    section: '4.15',
    level: 'unspecified',
    summary: 'What an agent makes of a follow-up sent alone under a new thread_id is left open.',
    decision:
      'Nothing carries over: the follow-up is read as a first question, so one that only makes sense after an earlier chart gets no chart that keeps it.',
  },
  {
    id: 'chat.body.agent-id-required',
    section: '4.15',
    level: 'must',
    summary: 'payload.agent_id is a mandatory string.',
  },
  {
    id: 'chat.body.agent-id-matches-path',
    section: '4.15',
    level: 'must',
    summary: 'payload.agent_id carries the same value as the agentId of the path.',
  },
  {
    id: 'chat.body.agent-id-mismatch',
    section: '4.15',
    level: 'unspecified',
    summary: 'The answer when payload.agent_id differs from the path agentId is left open.',
    decision: '400 VALIDATION_ERROR with the issue on payload.agent_id.',
  },
  {
    id: 'chat.body.agent-version-optional',
    section: '4.15',
    level: 'must',
    summary: 'payload.agent_version is an optional number that pins a version of the agent.',
  },
  {
    id: 'chat.body.agent-version-default-latest',
    section: '4.15',
    level: 'must',
    summary: 'Without agent_version the newest agent version answers.',
  },
  {
    id: 'chat.thread.agent-version-carry',
    section: '4.15',
    level: 'unspecified',
    summary:
      'Whether a version pinned by an earlier message of a thread holds for a later message of it that pins none is left open.',
    decision:
      'It does not: each message is answered by the version its own payload.agent_version pins, the latest when it pins none; a thread keeps SQL, chart and data, never a version.',
  },
  {
    id: 'chat.stream.content-type',
    section: '4.15',
    level: 'must',
    summary: 'The chat answer is a text/event-stream.',
  },
  {
    id: 'chat.stream.no-persist',
    section: '4.15',
    level: 'must',
    summary: 'Chatting stores no chart; saving is a separate call.',
  },
  {
    id: 'chat.agent.unknown',
    section: '4.15',
    level: 'unspecified',
    summary:
      'The answer for an agent that does not exist or is outside the token project is left open.',
    decision:
      "404 NOT_FOUND with details.resource 'agent', as a JSON answer before any stream starts.",
  },
  {
    id: 'chat.agent.unknown-version',
    section: '4.15',
    level: 'unspecified',
    summary:
      'The answer when payload.agent_version names a version the agent does not have is left open.',
    decision:
      "404 NOT_FOUND with details.resource 'agentVersion', as a JSON answer before any stream starts.",
  },
  {
    id: 'chat.body.agent-version-not-a-version',
    section: '4.15',
    level: 'unspecified',
    summary:
      'The answer when payload.agent_version is a number that cannot be a version (0, negative, fractional) is left open.',
    decision:
      '400 VALIDATION_ERROR with the issue on payload.agent_version, before any stream starts; a whole number from 1 that the agent lacks is chat.agent.unknown-version.',
  },
  {
    id: 'chat.body.no-user-message',
    section: '4.15',
    level: 'unspecified',
    summary:
      'The answer when messages holds no message of role user (empty, or assistant messages only) is left open.',
    decision:
      '400 VALIDATION_ERROR with the issue on messages, before any stream starts; otherwise the question is the last message of role user.',
  },
]);
