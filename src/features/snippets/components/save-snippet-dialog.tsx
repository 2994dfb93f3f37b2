import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSaveSnippet } from '../api/mutations';
import { suggestTitle } from '../utils/offer';
import { SnippetForm } from './snippet-form';

/** "Save as snippet": the answer box's text, with a title, for this system (a tag optional). */
export function SaveSnippetDialog({
  sourceId,
  systemName,
  tags,
  text,
  onClose,
}: {
  sourceId: string;
  systemName: string;
  tags: readonly string[];
  text: string;
  onClose: () => void;
}) {
  const save = useSaveSnippet();
  return (
    <Modal
      opened
      onClose={onClose}
      title="Save as snippet"
      centered
      zIndex={400}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      // A click beside it must not throw away what is typed in it.
      closeOnClickOutside={false}
    >
      <SnippetForm
        initial={{ title: suggestTitle(text), text, tag: null }}
        tagChoices={tags}
        submitLabel="Save snippet"
        pending={save.isPending}
        error={save.error}
        note={`Offered to everyone on the team in the answer box of ${systemName} questions. Who saves, edits or deletes it is in the Activity page.`}
        onCancel={onClose}
        onSubmit={(draft) =>
          save.mutate(
            { sourceId, draft },
            {
              onSuccess: (snippet) => {
                notifications.show({
                  color: 'green',
                  title: 'Snippet saved',
                  message: `“${snippet.title}” is offered to the team on ${systemName} questions.`,
                });
                onClose();
              },
            },
          )
        }
      />
    </Modal>
  );
}
