// Package deps pins the modules errorlab's packages are about to import so
// that parallel work does not race on go.mod. Delete it once every module
// here is imported for real.
package deps

import (
	_ "github.com/adrg/xdg"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/alecthomas/chroma/v2/lexers"
	_ "github.com/alecthomas/chroma/v2/styles"
	_ "github.com/charmbracelet/bubbles/help"
	_ "github.com/charmbracelet/bubbles/key"
	_ "github.com/charmbracelet/bubbles/list"
	_ "github.com/charmbracelet/bubbles/progress"
	_ "github.com/charmbracelet/bubbles/textinput"
	_ "github.com/charmbracelet/bubbles/viewport"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/lipgloss/table"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/muesli/termenv"
	_ "github.com/spf13/cobra"
)
