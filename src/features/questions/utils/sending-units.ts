import type { Question } from '../api/schemas';
import { sourceActionsOf } from './question-policy';

/**
 * Which of `questions` their systems take in one request when acted on together (see
 * `SourceCapabilities.sendsTogether`), in the order they were given: one set per request.
 */
export function sendingUnits(questions: readonly Question[]): Question[][] {
  const units = new Map<string, Question[]>();
  for (const question of questions) {
    const { source, asker } = question;
    const together = sourceActionsOf(question).sendsTogether === 'asker' && asker !== null;
    const key = together ? `${source.id}\u0000${asker}` : `\u0001${question.id}`;
    const unit = units.get(key);
    if (unit) unit.push(question);
    else units.set(key, [question]);
  }
  return [...units.values()];
}
