import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const zodNamespaceOnly = {
  selector:
    "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
  message:
    'Use `import * as z from "zod"`: the `z` object drags every zod locale (~65 KB gzip) into the browser bundles.',
};

const renderMemoMessage =
  "would make the page differ between two renderings of the same loader data (the render memo, decision 0084): take it from a loader through a plain module";
const noClockOrRandomness = [
  {
    selector: "MemberExpression[object.name='Date'][property.name='now']",
    message: `Date.now() ${renderMemoMessage}.`,
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: `new Date() ${renderMemoMessage}.`,
  },
  {
    selector: "CallExpression[callee.name='Date']",
    message: `Date() ${renderMemoMessage}.`,
  },
  {
    selector: "MemberExpression[object.name='performance'][property.name='now']",
    message: `performance.now() ${renderMemoMessage}.`,
  },
  {
    selector: "MemberExpression[object.name='Math'][property.name='random']",
    message: `Math.random() ${renderMemoMessage}.`,
  },
  {
    selector: "Identifier[name=/^(randomUUID|randomBytes|randomInt|getRandomValues)$/]",
    message: `A random value ${renderMemoMessage}.`,
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      "build",
      "dist",
      "data",
      ".cache",
      "test-results",
      "playwright-report",
      "bench/minimal/build",
      "bench/minimal/public",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-restricted-syntax": ["error", zodNamespaceOnly],
    },
  },
  {
    // The app never reaches into the Express layer: it is handed what it needs (decision 0084).
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+server(/|$)",
              message:
                "app/ does not import server/ (the Express layer): take it from the load context or the services.",
            },
          ],
        },
      ],
    },
  },
  {
    // What renders a page reads no clock and no random source: the render memo answers a page with
    // the bytes of an earlier rendering of the same loader data (decisions 0077, 0084). Loaders and
    // actions take such values from plain modules (a view token, a server-side helper).
    files: ["app/routes/**/*.{ts,tsx}", "app/components/**/*.{ts,tsx}", "app/root.tsx"],
    rules: {
      "no-restricted-syntax": ["error", zodNamespaceOnly, ...noClockOrRandomness],
    },
  },
  {
    // The unit tests share each worker's modules (vitest's isolate: false, decision 0131): a mock
    // of a module would reach only the files that load it first. Hand a test double in instead.
    files: ["**/*.test.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        zodNamespaceOnly,
        {
          selector:
            "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|unmock|doUnmock|resetModules)$/]",
          message:
            "Test files share their worker's modules (decision 0131): pass the test double as a parameter instead of mocking a module.",
        },
      ],
    },
  },
  prettier,
);
