import type { RosterImportStatus } from '../../../../shared/schemas/roster-imports.ts';

/** Status badges of a roster import (docs/irs-data.md "Roster import"), in words staff use. */
export const IMPORT_STATUS: Record<RosterImportStatus, { label: string; color: string }> = {
  preview: { label: 'Preview: not applied', color: 'blue' },
  confirmed: { label: 'Confirmed', color: 'green' },
  discarded: { label: 'Discarded', color: 'gray' },
  undone: { label: 'Undone', color: 'orange' },
};
