/** The answer of every work item action: a message to show, and the item's id. */
export interface WorkItemActionAnswer {
  message: string;
  id: number;
}
