import { Button, Group, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/**
 * The search row of a staff list (docs/staff-lists.md): a search box sent with its button or
 * Enter, the list's filters (`children`), and Clear while anything is set. The box follows the
 * address (Back, Clear, a shared link) and keeps what is typed until it is sent.
 * @param label the list's name for screen readers, e.g. 'Mails'
 * @param placeholder what the search matches, e.g. 'Recipient or subject'
 * @param search the search the list shows now (from the address)
 * @param onSearch sends a new search
 * @param onClear drops the search and every filter (shown only when `filtered`)
 * @param exportHref the list's CSV export with the same query (an "Export CSV" link), if it has one
 */
export function ListSearch({
  label,
  placeholder,
  search,
  onSearch,
  filtered,
  onClear,
  exportHref,
  children,
}: {
  label: string;
  placeholder: string;
  search: string;
  onSearch: (search: string) => void;
  filtered: boolean;
  onClear: () => void;
  exportHref?: string;
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState(search);
  // The box shows the address's search again whenever the address changes (back, forward, clear).
  const [draftOf, setDraftOf] = useState(search);
  if (draftOf !== search) {
    setDraftOf(search);
    setDraft(search);
  }
  return (
    <form
      role="search"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft);
      }}
    >
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder={placeholder}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          w={260}
          maxLength={100}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
        {children}
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setDraft('');
              onClear();
            }}
          >
            Clear
          </Button>
        )}
        {exportHref && (
          <Button component="a" variant="default" href={exportHref} download ml="auto">
            Export CSV
          </Button>
        )}
      </Group>
    </form>
  );
}
