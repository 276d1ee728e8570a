package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
	"github.com/goccy/go-yaml"

	"github.com/errorlab/errorlab/ui/styles"
)

// ThemeEnv is the environment variable that chooses a theme when
// --theme is not given.
const ThemeEnv = "ERRORLAB_THEME"

// ConfigPath is errorlab's config file: $XDG_CONFIG_HOME/errorlab/config.yaml
// (~/.config/errorlab/config.yaml by default). Its one key today is
// `theme: dark|light|high-contrast|mono|auto`.
func ConfigPath() string { return filepath.Join(xdg.ConfigHome, "errorlab", "config.yaml") }

// fileConfig is the config file's shape.
type fileConfig struct {
	Theme string `yaml:"theme"`
}

// resolveTheme picks the theme: the --theme flag, else ERRORLAB_THEME,
// else the config file, else auto. A bad name from any of them is a usage
// error that says where it came from; a missing config file is no error.
func (a *app) resolveTheme() (styles.Theme, error) {
	name, from := a.theme, "--theme"
	if name == "" {
		name, from = os.Getenv(ThemeEnv), ThemeEnv
	}
	if name == "" {
		path := ConfigPath()
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return "", fmt.Errorf("config file %s: %w", path, err)
		default:
			var fc fileConfig
			if err := yaml.UnmarshalWithOptions(b, &fc, yaml.Strict()); err != nil {
				return "", usagef("config file %s: %s (the file takes one key, e.g. `theme: light`)", path, yaml.FormatError(err, false, true))
			}
			name, from = fc.Theme, "theme in "+path
		}
	}
	t, err := styles.ParseTheme(name)
	if err != nil {
		return "", usagef("%s: %v", from, err)
	}
	return t, nil
}
