import { Alert, Button, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';

interface PartBoundaryProps {
  /** What failed, in the reviewer's words: "The arguments of this question". */
  what: string;
  /** When this changes (new data for the part), it is tried again. */
  resetKey?: unknown;
  children: ReactNode;
}

/**
 * Around one part of a screen that shows agent-written data (a record's arguments, its answer):
 * if it fails while rendering, that part says so by name and the rest of the screen still works.
 * Failed downloads of code are LoadBoundary's, with their own message.
 */
export class PartBoundary extends Component<PartBoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidUpdate(previous: PartBoundaryProps) {
    if (this.state.error !== null && previous.resetKey !== this.props.resetKey)
      this.setState({ error: null });
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const reason =
      this.state.error instanceof Error ? this.state.error.message : String(this.state.error);
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title={`${this.props.what} could not be shown`}
      >
        <Text size="sm">
          Something in this record could not be displayed ({reason.slice(0, 200)}). The rest of the
          question still works; tell whoever runs the agent platform if this keeps happening.
        </Text>
        <Button mt="sm" size="xs" variant="default" onClick={() => this.setState({ error: null })}>
          Try again
        </Button>
      </Alert>
    );
  }
}
