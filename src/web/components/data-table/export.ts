/** Spreadsheet export of rows already on screen; xlsx is loaded only when someone exports. */
export type ExportFormat = 'xls' | 'xlsx' | 'csv' | 'html';

export async function exportRows(
  rows: Array<Record<string, unknown>>,
  format: ExportFormat = 'xls',
  fileName = 'data.xls',
  sheetName = 'Sheet1',
  /** Further sheets of the same book (xlsx), after the first. */
  moreSheets: ReadonlyArray<{ name: string; rows: Array<Record<string, unknown>> }> = [],
): Promise<boolean> {
  if (rows.length === 0) return false; // nothing exported when the list is empty
  const XLSX = await import('xlsx');
  const sheet = XLSX.utils.json_to_sheet(rows);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName);
  for (const more of moreSheets) XLSX.utils.book_append_sheet(book, XLSX.utils.json_to_sheet(more.rows), more.name);
  const name = fileName.replace(/\.[^.]+$/, `.${format}`);
  XLSX.writeFile(book, name, { bookType: format === 'xls' ? 'biff8' : format });
  return true;
}
