// Package assets embeds errorlab's content: the lab scenarios, the
// questions, the rules Reference (and, as they arrive, walkthroughs).
// Content is data; the packages that read it validate it when it loads.
package assets

import "embed"

// FS holds scenarios/*.yaml, questions/*.yaml and reference/*.md (one
// Markdown file per LESSON-RULES section, §1 to §9).
//
//go:embed scenarios questions reference
var FS embed.FS
