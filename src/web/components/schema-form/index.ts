/**
 * Schema-driven forms in the browser (docs/requirements/entities.md "Field definition", "Dynamic form configuration"):
 * one renderer for every field type, the values/errors state they share, and the dynamic form.
 * The wizard screen (features/applications) builds on the same pieces.
 */
export { SchemaField, SchemaFields, labelOf, linkText, safeHref, type SchemaFieldsProps } from './schema-field.tsx';
export { DropboxField, fileUploadsOf, type FileUpload } from './dropbox-field.tsx';
export { DynamicForm, type DynamicFormProps } from './dynamic-form.tsx';
export {
  checkValues, defaultValueOf, initialValues, payloadOf, shownFieldNames, useSchemaValues,
  type SchemaErrors, type SchemaFormState, type SchemaValues,
} from './schema-values.ts';
