import type { Snippet } from '../api/schemas';

export interface SnippetGroup {
  /** Said above the group: "Tagged billing", "All Reflexio questions", "Other tags". */
  label: string;
  snippets: Snippet[];
}

const byTitle = (a: Snippet, b: Snippet) =>
  a.title.localeCompare(b.title, undefined, { sensitivity: 'base' });

/**
 * The snippets a question is offered, in the order the reviewer meets them: those for one of its
 * tags first (tag by tag, in the question's order), then those for any question of its system,
 * then those for other tags (kept, not hidden: a snippet saved under another tag may still fit).
 * Only its system's: the server lists one system's at a time, and any other is left out here too.
 */
export function offeredSnippets(
  snippets: readonly Snippet[],
  question: { sourceId: string; tags: readonly string[] },
  systemName: string,
): SnippetGroup[] {
  const own = snippets.filter((snippet) => snippet.sourceId === question.sourceId);
  const tags = question.tags.map((tag) => tag.toLowerCase());
  const groups: SnippetGroup[] = [];
  for (const [index, tag] of tags.entries()) {
    if (tags.indexOf(tag) !== index) continue;
    const tagged = own.filter((snippet) => snippet.tag?.toLowerCase() === tag).sort(byTitle);
    if (tagged.length > 0)
      groups.push({ label: `Tagged ${question.tags[index]}`, snippets: tagged });
  }
  const untagged = own.filter((snippet) => snippet.tag === null).sort(byTitle);
  if (untagged.length > 0)
    groups.push({ label: `All ${systemName} questions`, snippets: untagged });
  const others = own
    .filter((snippet) => snippet.tag !== null && !tags.includes(snippet.tag.toLowerCase()))
    .sort(byTitle);
  if (others.length > 0) groups.push({ label: 'Other tags', snippets: others });
  return groups;
}

/** A title for what the reviewer is saving: its first line, cut at a word within `max` characters. */
export function suggestTitle(text: string, max = 60): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
