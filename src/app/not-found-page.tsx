import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { QUESTIONS_PATH } from '@/config/routes';

export function NotFoundPage() {
  return (
    <Stack maw={640} mx="auto" py="xl">
      <Title order={2}>Page not found</Title>
      <Text>There is nothing at this address.</Text>
      <Anchor component={Link} to={QUESTIONS_PATH}>
        Go to the questions
      </Anchor>
    </Stack>
  );
}
