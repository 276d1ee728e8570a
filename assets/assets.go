// Package assets embeds errorlab's content: the lab scenarios (and, as
// they arrive, questions and walkthroughs). Content is data; the packages
// that read it validate it when it loads.
package assets

import "embed"

// FS holds scenarios/*.yaml and questions/*.yaml.
//
//go:embed scenarios questions
var FS embed.FS
