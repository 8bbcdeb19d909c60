import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const restrict = (patterns) => ["error", { patterns }];

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "test-results/", "playwright-report/", "scratch/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The browser never imports server code.
      "no-restricted-imports": restrict([
        { group: ["#server/*", "**/server/**"], message: "src/web must not import src/server." },
      ]),
    },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict([
        {
          group: ["#server/*", "#web/*", "**/server/**", "**/web/**", "node:*"],
          message: "src/shared imports neither server nor web code, nor Node.",
        },
      ]),
    },
  },
  {
    files: ["src/server/**/*.ts"],
    ignores: ["src/server/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict([
        { group: ["#web/*", "**/web/**"], message: "src/server loads the web entry as a module, never by import." },
      ]),
    },
  },
);
