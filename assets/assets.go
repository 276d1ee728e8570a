// Package assets embeds errorlab's content: the lab scenarios, the
// questions, the rules Reference and the classroom walkthroughs. Content
// is data; the packages that read it validate it when it loads.
package assets

import "embed"

// FS holds scenarios/*.yaml, questions/*.yaml, reference/*.md (one
// Markdown file per LESSON-RULES section, §1 to §9) and
// walkthroughs/*.yaml.
//
//go:embed scenarios questions reference walkthroughs
var FS embed.FS
