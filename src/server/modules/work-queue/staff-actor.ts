/** The staff user acting on a work item, and where from (for the audit log). */
export interface StaffActor {
  userId: number;
  ip: string;
}

/** The answer of every work item action: a message to show, and the item's id. */
export interface WorkItemActionAnswer {
  message: string;
  id: number;
}
