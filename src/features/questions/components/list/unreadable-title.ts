/** "2 questions could not be read": what the list says of records that failed the schema. */
export function unreadableTitle(count: number): string {
  return `${count} question${count === 1 ? '' : 's'} could not be read`;
}
