import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import { Anchor, Checkbox, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import type { CSSProperties, KeyboardEvent } from 'react';
import type { PromptAnswer, QuestionPrompt } from '../../api/schemas';
import type { PromptFormKind } from '../../utils/prompt-answers';
import { displayText } from '../../utils/text';
import classes from './answer-form.module.css';
import { cssGrows } from './textarea-sizing';

export interface PromptFieldsProps {
  kind: Exclude<PromptFormKind, 'single'>;
  prompts: readonly QuestionPrompt[];
  answers: readonly PromptAnswer[];
  errors: readonly (string | null)[];
  onChange: (answers: PromptAnswer[]) => void;
  readOnly: boolean;
  /** Ctrl/⌘ + Enter and Esc in any field (the form's own keys). */
  onFieldKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

// Agent-written, and a Bilby question may be a megabyte: the question's whole text is above the
// form (with "Show the whole text"); labels show a slice, whole characters, controls visible.
const LABEL = 300;
const HEADER = 120;
const OPTION = 300;
const DESCRIPTION = 1_000;
const NAME = 120;

// Mantine closes the drawer on Esc from a window listener unless the key came from such a field:
// Esc in a field leaves the field (see AnswerForm), the next Esc closes the drawer.
const stopEsc = { 'data-mantine-stop-propagation': 'true' } as const;

/**
 * One field per question a record holds: a box each (Vertesia's questions), or each question's
 * options, one or several, plus words of the reviewer's own (Bilby). What is chosen is the form's
 * state, kept as a draft like any typed answer.
 */
export function PromptFields({
  kind,
  prompts,
  answers,
  errors,
  onChange,
  readOnly,
  onFieldKeyDown,
}: PromptFieldsProps) {
  const update = (index: number, patch: Partial<PromptAnswer>) =>
    onChange(answers.map((answer, at) => (at === index ? { ...answer, ...patch } : answer)));
  const counted = prompts.length > 1;

  return (
    <Stack gap="md" onKeyDown={onFieldKeyDown} data-testid="prompt-fields">
      {prompts.map((prompt, index) => {
        const answer = answers[index] ?? { selected: [], custom: '' };
        const error = errors[index] ?? null;
        const place = counted ? `Question ${index + 1} of ${prompts.length}` : undefined;
        // Keys are positions: the prompts of a record never change order.
        const key = `prompt-${index}`;
        const label = displayText(prompt.text, LABEL);
        const header = prompt.header === null ? null : displayText(prompt.header, HEADER);
        const name = displayText(prompt.header ?? prompt.text, NAME);
        if (kind === 'texts' || prompt.options.length === 0) {
          return (
            <Textarea
              key={key}
              label={label}
              description={header ? `${place ? `${place} · ` : ''}${header}` : place}
              className={`${classes.textarea} ${classes.grow}`}
              style={{ '--grow-min-rows': 2 } as CSSProperties}
              value={answer.custom}
              onChange={(event) => update(index, { custom: event.currentTarget.value })}
              autosize={!cssGrows}
              minRows={2}
              maxRows={10}
              error={error}
              readOnly={readOnly}
              dir="auto"
              {...stopEsc}
            />
          );
        }
        const description = [
          header,
          place,
          prompt.multiSelect ? 'Choose any that apply.' : 'Choose one.',
        ]
          .filter(Boolean)
          .join(' · ');
        const options = prompt.options.map((option) =>
          prompt.multiSelect ? (
            <Checkbox
              key={option.label}
              value={option.label}
              label={displayText(option.label, OPTION)}
              description={
                option.description === null
                  ? undefined
                  : displayText(option.description, DESCRIPTION)
              }
              disabled={readOnly}
              {...stopEsc}
            />
          ) : (
            <Radio
              key={option.label}
              value={option.label}
              label={displayText(option.label, OPTION)}
              description={
                option.description === null
                  ? undefined
                  : displayText(option.description, DESCRIPTION)
              }
              disabled={readOnly}
              {...stopEsc}
            />
          ),
        );
        const other = (
          <TextInput
            label="Or in your own words"
            // Several questions each have this field: the name says which (and keeps the label).
            aria-label={`Or in your own words: ${name}`}
            value={answer.custom}
            onChange={(event) => update(index, { custom: event.currentTarget.value })}
            readOnly={readOnly}
            dir="auto"
            size="sm"
            {...stopEsc}
          />
        );
        return (
          <div key={key} className={classes.prompt}>
            {prompt.multiSelect ? (
              <Checkbox.Group
                label={label}
                description={description || undefined}
                value={answer.selected}
                onChange={(selected) => update(index, { selected })}
                error={error}
              >
                <Stack gap={8} mt={6}>
                  {options}
                </Stack>
              </Checkbox.Group>
            ) : (
              <Radio.Group
                label={label}
                description={description || undefined}
                value={answer.selected[0] ?? null}
                onChange={(label) => update(index, { selected: label ? [label] : [] })}
                error={error}
              >
                <Stack gap={8} mt={6}>
                  {options}
                </Stack>
              </Radio.Group>
            )}
            {!prompt.multiSelect && answer.selected.length > 0 && !readOnly && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => update(index, { selected: [] })}
                aria-label={`Clear the choice: ${name}`}
              >
                Clear the choice
              </Anchor>
            )}
            {other}
          </div>
        );
      })}
    </Stack>
  );
}
