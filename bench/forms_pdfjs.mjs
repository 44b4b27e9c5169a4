// The form fields pdf.js reads in each PDF named on the command line, one JSON line a file:
// {"file", "pages", "fields": {"<full field name>": value}} or {"file", "error"}.
// Run by bench/forms_pdfjs.py, which installs pdfjs-dist beside it.
import { readFileSync } from "node:fs";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

for (const path of process.argv.slice(2)) {
  try {
    const document = await getDocument({ data: new Uint8Array(readFileSync(path)), verbosity: 0 }).promise;
    const objects = (await document.getFieldObjects()) || {};
    const fields = {};
    for (const [name, widgets] of Object.entries(objects)) {
      const set = widgets.find((widget) => widget.value !== undefined && widget.value !== "" && widget.value !== "Off");
      fields[name] = (set || widgets[0]).value ?? null;
    }
    console.log(JSON.stringify({ file: path, pages: document.numPages, fields }));
  } catch (error) {
    console.log(JSON.stringify({ file: path, error: String(error) }));
  }
}
