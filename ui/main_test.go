package ui

import (
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

func TestMain(m *testing.M) { uitest.Main(m) }
