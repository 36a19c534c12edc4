import { specError, type SpecError } from '../../spec/errors.ts';
import type { ChatBody } from '../../spec/schemas/chat.ts';
import type { Settings } from '../settings.ts';

/**
 * §4.15: what the chat endpoint makes of a body that parsed, where the document leaves the
 * answer open. The reference's decisions refuse (`chatRequests: 'refuse'`); a server may
 * answer instead (`'answer'`): the path names the agent, a history without a user message is
 * met with a request for a question, and a version the agent cannot have is no pin at all.
 */

const BAD_BODY = 'the request body is not valid';
const AGENT_ID_MISMATCH = 'must equal the agentId of the path';
const NO_USER_MESSAGE = 'needs at least one message of role user';
const NOT_A_VERSION = 'must be a version number (1, 2, ...)';

const invalid = (path: (string | number)[], message: string) =>
  specError('VALIDATION_ERROR', BAD_BODY, {
    issues: [{ path, message, code: 'custom' }],
  });

export type ChatReading =
  | { readonly kind: 'refused'; readonly error: SpecError }
  /** No message of role user, taken: the answer asks for a question. */
  | { readonly kind: 'no-question'; readonly pinned: number | undefined }
  | { readonly kind: 'question'; readonly question: string; readonly pinned: number | undefined };

const isVersionNumber = (v: number) => Number.isSafeInteger(v) && v >= 1;

/**
 * Decisions chat.body.agent-id-mismatch, chat.body.no-user-message and
 * chat.body.agent-version-not-a-version: each a 400 on its member, before any stream. The
 * question is the last message of role user.
 */
export function readChatBody(
  agentId: string,
  body: ChatBody,
  settings: Pick<Settings, 'chatRequests'>,
): ChatReading {
  const refuse = settings.chatRequests === 'refuse';
  const { messages, payload } = body;
  if (refuse && payload.agent_id.toLowerCase() !== agentId)
    return { kind: 'refused', error: invalid(['body', 'payload', 'agent_id'], AGENT_ID_MISMATCH) };
  const question = [...messages].reverse().find((m) => m.role === 'user');
  if (refuse && question === undefined)
    return { kind: 'refused', error: invalid(['body', 'messages'], NO_USER_MESSAGE) };
  const version = payload.agent_version;
  if (version !== undefined && !isVersionNumber(version)) {
    if (refuse)
      return {
        kind: 'refused',
        error: invalid(['body', 'payload', 'agent_version'], NOT_A_VERSION),
      };
  }
  const pinned = version !== undefined && isVersionNumber(version) ? version : undefined;
  return question === undefined
    ? { kind: 'no-question', pinned }
    : { kind: 'question', question: question.content, pinned };
}

/**
 * The version that answers (§4.15: the pinned one, by default the latest). Decision
 * chat.thread.agent-version-carry: a message pinning none gets the latest, whatever its thread
 * pinned before (`threadVersion: 'own'`); a server may let the thread's last pin hold instead
 * (`'carried'`). Decision chat.agent.unknown-version: a version the agent lacks is a 404; a
 * server answering instead lets the latest answer.
 */
export function answeringVersion(
  versions: readonly number[],
  pinned: number | undefined,
  threadPin: number | undefined,
  settings: Pick<Settings, 'chatRequests' | 'threadVersion'>,
): number | SpecError {
  const latest = versions[versions.length - 1] ?? 1;
  const wanted = pinned ?? (settings.threadVersion === 'carried' ? threadPin : undefined) ?? latest;
  if (versions.includes(wanted)) return wanted;
  if (settings.chatRequests === 'answer') return latest;
  return specError('NOT_FOUND', `the agent has no version ${String(wanted)}`, {
    resource: 'agentVersion',
    field: 'payload.agent_version',
  });
}

/** What a stream says when the history holds no question (`chatRequests: 'answer'`). */
export const ASK_FOR_A_QUESTION =
  'Ask me a question about your data, for instance a total by product or by region.';
