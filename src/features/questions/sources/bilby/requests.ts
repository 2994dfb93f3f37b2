import { NOT_APPLICABLE_SUMMARY, summarizeAnswers } from '../../utils/prompt-answers';
import type { WireRequest } from '../http';
import type { SourcePrompt } from '../types';
import { type ToolOutput, toolOutputsBodySchema } from './assumptions';

export interface BilbyConfig {
  /** Absolute API root, e.g. `https://pulse.bilby.ai/api/v1/` or the portal's `…/bilby/api/v1/`. */
  apiBaseUrl: string;
  organizationId?: string;
  headers?: Record<string, string>;
}

function url(config: BilbyConfig, path: string, query: Record<string, string | null> = {}) {
  const base = config.apiBaseUrl.endsWith('/') ? config.apiBaseUrl : `${config.apiBaseUrl}/`;
  const target = new URL(path, base);
  if (config.organizationId) target.searchParams.set('organizationId', config.organizationId);
  for (const [key, value] of Object.entries(query)) {
    if (value !== null) target.searchParams.set(key, value);
  }
  return target.toString();
}

export function listConversationsRequest(config: BilbyConfig, cursor: string | null): WireRequest {
  return {
    method: 'GET',
    url: url(config, 'conversations', { cursor }),
    headers: { ...config.headers },
  };
}

export function getConversationRequest(config: BilbyConfig, id: string): WireRequest {
  return {
    method: 'GET',
    url: url(config, `conversations/${encodeURIComponent(id)}`),
    headers: { ...config.headers },
  };
}

export function toolOutputsRequest(
  config: BilbyConfig,
  conversationId: string,
  outputs: { toolCallId: string; output: ToolOutput }[],
): WireRequest {
  return {
    method: 'POST',
    url: url(config, `conversations/${encodeURIComponent(conversationId)}/tool-outputs`),
    headers: { ...config.headers },
    body: toolOutputsBodySchema.parse({ outputs }),
  };
}

/** What the reviewer chose for one prompt: option labels and/or free "other" text. */
export interface Choice {
  selected: string[];
  custom?: string;
}

export const DISMISSED_SUMMARY = NOT_APPLICABLE_SUMMARY;

/** Bilby's `summary`: see summarizeAnswers ("Postgres: Postgres 17"). Never empty. */
export const buildBilbySummary = summarizeAnswers;

/**
 * The output for one tool call, checked against its prompts before anything is sent: labels are
 * the prompt's options, one at most unless multi-select, and every prompt answered. Throws a
 * RangeError naming the first problem.
 */
export function buildAnswerOutput(
  prompts: readonly SourcePrompt[],
  choices: readonly Choice[],
): ToolOutput {
  if (choices.length !== prompts.length) {
    throw new RangeError(`${prompts.length} questions but ${choices.length} answers`);
  }
  const answers = prompts.map((prompt, index) => {
    const choice = choices[index] as Choice;
    const labels = new Set(prompt.options.map((option) => option.label));
    const unknown = choice.selected.find((label) => !labels.has(label));
    if (unknown !== undefined)
      throw new RangeError(`"${unknown}" is not an option of "${prompt.text}"`);
    if (!prompt.multiSelect && choice.selected.length > 1) {
      throw new RangeError(`"${prompt.text}" takes one option`);
    }
    const custom = choice.custom?.trim();
    if (choice.selected.length === 0 && !custom)
      throw new RangeError(`"${prompt.text}" has no answer`);
    return { question: prompt.text, selected: [...choice.selected], ...(custom ? { custom } : {}) };
  });
  return { status: 'answered', answers, summary: buildBilbySummary(prompts, choices) };
}

export function buildDismissOutput(): ToolOutput {
  return { status: 'dismissed', answers: [], summary: DISMISSED_SUMMARY };
}
