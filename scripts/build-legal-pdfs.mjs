// Builds public/docs/<slug>.pdf from the text sources in content/legal/<slug>.md, so the
// operator can change the wording without touching code. Format of a source:
//   # Title             (first line)
//   Fecha: …            (optional line shown under the title)
//   ## Section heading
//   Paragraph text; "- " starts a list item.
import { mkdirSync, readFileSync, readdirSync, createWriteStream } from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import brand from "../app/brand/brand.json" with { type: "json" };
import { drawLogo as drawBrandLogo } from "../app/brand/pdf-logo.mjs";

const sourceDir = path.resolve("content/legal");
const outputDir = path.resolve("public/docs");
const COMPANY = "Conecta Móvil Telecomunicaciones, S.A. de C.V.";

/** The brand's mark and wordmark at the top left of the first page (app/brand/pdf-logo.mjs). */
export function drawLogo(pdf, x, y, size = 28) {
  drawBrandLogo(pdf, brand, x, y, size);
}

export function parseLegalSource(text) {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const titleLine = lines.find((line) => line.startsWith("# "));
  if (!titleLine) throw new Error("a legal source needs a '# Title' line");
  const blocks = [];
  let date = null;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: "paragraph", text: paragraph.join(" ") });
    paragraph = [];
  };
  for (const line of lines) {
    if (line === titleLine) continue;
    if (line.startsWith("Fecha:")) {
      date = line.slice("Fecha:".length).trim();
    } else if (line.startsWith("## ")) {
      flush();
      blocks.push({ type: "heading", text: line.slice(3).trim() });
    } else if (line.startsWith("- ")) {
      flush();
      blocks.push({ type: "item", text: line.slice(2).trim() });
    } else if (line.trim() === "") {
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return { title: titleLine.slice(2).trim(), date, blocks };
}

function writePdf(document, file) {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      size: "LETTER",
      margins: { top: 64, bottom: 64, left: 64, right: 64 },
      info: { Title: document.title, Author: COMPANY, Subject: document.title },
      lang: "es-MX",
      displayTitle: true,
    });
    const stream = createWriteStream(file);
    stream.on("finish", resolve);
    stream.on("error", reject);
    pdf.pipe(stream);
    drawLogo(pdf, pdf.page.margins.left, pdf.page.margins.top);
    pdf.font("Helvetica").fontSize(9).fillColor("#15803d").text(COMPANY);
    pdf.moveDown(0.5).font("Helvetica-Bold").fontSize(18).fillColor("#0f172a").text(document.title);
    if (document.date) pdf.font("Helvetica").fontSize(10).fillColor("#475569").text(document.date);
    pdf.moveDown();
    for (const block of document.blocks) {
      if (block.type === "heading") {
        pdf.moveDown(0.6).font("Helvetica-Bold").fontSize(12).fillColor("#0f172a").text(block.text);
        pdf.moveDown(0.3);
      } else if (block.type === "item") {
        pdf
          .font("Helvetica")
          .fontSize(10)
          .fillColor("#1e293b")
          .text(`•  ${block.text}`, { indent: 12 });
        pdf.moveDown(0.2);
      } else {
        pdf
          .font("Helvetica")
          .fontSize(10)
          .fillColor("#1e293b")
          .text(block.text, { align: "justify" });
        pdf.moveDown(0.5);
      }
    }
    pdf.end();
  });
}

async function main() {
  mkdirSync(outputDir, { recursive: true });
  const sources = readdirSync(sourceDir).filter((name) => name.endsWith(".md"));
  for (const name of sources) {
    const document = parseLegalSource(readFileSync(path.join(sourceDir, name), "utf8"));
    await writePdf(document, path.join(outputDir, name.replace(/\.md$/, ".pdf")));
  }
  console.log(`legal PDFs: ${sources.length} written to public/docs`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
