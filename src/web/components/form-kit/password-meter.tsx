import { Box, Group, Text } from '@mantine/core';
import { passwordStrength } from '../../../shared/rules/password-strength.ts';

const COLORS = ['red.7', 'orange.6', 'yellow.6', 'lime.6', 'green.7'];

/**
 * Five bars and the visible label (Very weak ... Very strong) of docs/requirements/validation.md; bar i is lit while the
 * score is above its threshold. Guidance text under it. Nothing shows for an empty password.
 */
export function PasswordMeter({ password, id }: { password: string; id?: string }) {
  const { bars, label } = passwordStrength(password);
  const color = COLORS[Math.max(0, bars - 1)];
  return (
    <Box mt={6} id={id}>
      <Group
        gap={4}
        grow
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={5}
        aria-valuenow={password ? bars : 0}
        aria-valuetext={password ? label : 'No password yet'}
      >
        {[0, 1, 2, 3, 4].map((i) => (
          <Box
            key={i}
            h={6}
            style={{ borderRadius: 3 }}
            bg={password && i < bars ? color : 'gray.3'}
            data-lit={password && i < bars ? 'true' : 'false'}
          />
        ))}
      </Group>
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          At least 8 characters with letters and numbers; mixed case and symbols make it stronger.
        </Text>
        {password && (
          <Text size="xs" fw={700} data-testid="password-strength-label">
            {label}
          </Text>
        )}
      </Group>
    </Box>
  );
}
