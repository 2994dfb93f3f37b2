import { useMutation, useQueryClient } from '@tanstack/react-query';
import { snippetKeys } from './queries';
import { createSnippet, deleteSnippet, updateSnippet } from './requests';
import type { Snippet, SnippetDraft } from './schemas';

/** Every list of snippets is read again after a change (the mutation waits for it). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: snippetKeys.all });
}

export function useSaveSnippet() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (vars: { sourceId: string; draft: SnippetDraft }) =>
      createSnippet(vars.sourceId, vars.draft),
    onSuccess: invalidate,
  });
}

export function useEditSnippet() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (vars: { snippet: Snippet; draft: SnippetDraft }) =>
      updateSnippet(vars.snippet, vars.draft),
    // A conflict brings the colleague's version: the list shows it.
    onSettled: invalidate,
  });
}

export function useDeleteSnippet() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (snippet: Snippet) => deleteSnippet(snippet),
    onSettled: invalidate,
  });
}
