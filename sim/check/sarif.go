package check

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

// SARIFSchema is the schema URI a SARIF 2.1.0 log names.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// The SARIF 2.1.0 objects errorlab writes: one run whose driver lists
// every check as a rule, and one result per finding. GitHub code scanning
// needs, of these, the driver's name and rules, each result's ruleId,
// message and a physical location with a URI and a start line.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		Help                 sarifHelp       `json:"help"`
		DefaultConfiguration sarifConfig     `json:"defaultConfiguration"`
		Properties           sarifProperties `json:"properties"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifProperties struct {
		Tags             []string `json:"tags"`
		SecuritySeverity string   `json:"security-severity,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical  `json:"physicalLocation"`
		LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
	sarifLogical struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
)

// sarifLevel maps a severity to SARIF's level.
func sarifLevel(s grade.Severity) string {
	switch s {
	case grade.SevError:
		return "error"
	case grade.SevWarning:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the results as a SARIF 2.1.0 log. A finding's location
// is its input file and line (for a live probe: the target's name and the
// exchange's number) and, as a logical location, its JSON path.
func WriteSARIF(w io.Writer, results []Result, run Run) error {
	checks := grade.Checks()
	index := map[grade.CheckID]int{}
	driver := sarifDriver{Name: "errorlab", Version: run.Version, Rules: make([]sarifRule, 0, len(checks))}
	for i, c := range checks {
		index[c.ID] = i
		rule := rules.Lookup(c.Rule)
		tags := []string{"mcp", "error-handling", strings.TrimPrefix(c.Section, "§") + "-" + slug(rule.Title)}
		props := sarifProperties{Tags: tags}
		if c.Defect == grade.DefectLeak {
			props.Tags = append(props.Tags, "security")
			props.SecuritySeverity = "7.5"
		}
		driver.Rules = append(driver.Rules, sarifRule{
			ID: string(c.ID), Name: string(c.ID),
			ShortDescription:     sarifText{c.Title},
			FullDescription:      sarifText{c.Title + ". " + rule.Statement},
			Help:                 sarifHelp{Text: "Fix: " + c.Fix + "\nLESSON-RULES " + rule.Ref() + ": " + rule.Statement, Markdown: "**Fix:** " + c.Fix + "\n\n**LESSON-RULES " + rule.Ref() + ":** " + rule.Statement},
			DefaultConfiguration: sarifConfig{Level: sarifLevel(c.Severity)},
			Properties:           props,
		})
	}
	out := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}}}
	for n, r := range results {
		uri, line := fileURI(r.File), r.Line
		if uri == "" {
			uri, line = targetURI(run.Target), n+1
		}
		if line < 1 {
			line = 1
		}
		for _, f := range r.Report.Findings {
			sum := sha256.Sum256([]byte(uri + "\x00" + r.Label + "\x00" + string(f.ID) + "\x00" + f.Path))
			out.Runs[0].Results = append(out.Runs[0].Results, sarifResult{
				RuleID: string(f.ID), RuleIndex: index[f.ID], Level: sarifLevel(f.Severity),
				Message: sarifText{r.Label + ": " + f.Message + ". Fix: " + f.Fix},
				Locations: []sarifLocation{{
					PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}, Region: sarifRegion{StartLine: line}},
					LogicalLocations: []sarifLogical{{FullyQualifiedName: f.Path, Kind: "member"}},
				}},
				PartialFingerprints: map[string]string{"errorlabFinding/v1": hex.EncodeToString(sum[:16])},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// fileURI is a SARIF artifact URI for an input file: a relative
// reference for a relative path (or "stdin"), a file:// URI for an
// absolute one. "" when there is no file.
func fileURI(name string) string {
	if name == "" {
		return ""
	}
	if filepath.IsAbs(name) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()
	}
	return (&url.URL{Path: filepath.ToSlash(name)}).String()
}

// targetURI is the artifact URI of a live server: its command or URL as
// a relative URI segment, cut at a word's end, and a short hash of the
// whole target, so that two servers (two roots of one command) never
// share a URI or a fingerprint.
func targetURI(target string) string {
	if target == "" {
		return "mcp-server"
	}
	sum := sha256.Sum256([]byte(target))
	return slug(target) + "-" + hex.EncodeToString(sum[:4])
}

var nonSlug = regexp.MustCompile(`[^a-z0-9._-]+`)

// maxSlug bounds a slug's length; it is cut at the end of a word.
const maxSlug = 64

// slug turns a name into a relative URI segment: "npx -y server" →
// "npx-y-server".
func slug(s string) string {
	s = nonSlug.ReplaceAllString(strings.ToLower(s), "-")
	s = strings.Trim(s, "-.")
	if len(s) > maxSlug {
		cut := strings.LastIndexAny(s[:maxSlug+1], "-.")
		if cut <= 0 {
			cut = maxSlug
		}
		s = strings.Trim(s[:cut], "-.")
	}
	if s == "" {
		s = "mcp-server"
	}
	return s
}
