package grade_test

import (
	"context"
	"slices"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// The mock server practises what it teaches: its good style grades clean
// (notes allowed) under every revision, and each bad style shows the
// defect it stands for.
func TestMockServerStylesGradeAsTaught(t *testing.T) {
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	want := map[mockserver.Style]grade.Defect{
		mockserver.StyleGeneric:        grade.DefectGenericMessage,
		mockserver.StyleRawException:   grade.DefectRawException,
		mockserver.StyleErrorAsSuccess: grade.DefectErrorAsSuccess,
		mockserver.StyleEmptySuccess:   grade.DefectHiddenFailure,
		mockserver.StyleProtocolError:  grade.DefectWrongLayer,
		mockserver.StyleStructuredOnly: grade.DefectNoTextBlock,
	}
	var tools []grade.Tool
	for _, tl := range mockserver.New(mockserver.Options{}).Tools() {
		tools = append(tools, grade.Tool{Name: tl.Name, InputSchema: tl.RawInputSchema, OutputSchema: tl.RawOutputSchema})
	}
	for _, s := range c.Scenarios {
		for _, rev := range rules.Revisions {
			good, err := s.Exchange(context.Background(), mockserver.StyleGood, rev)
			if err != nil {
				t.Fatal(err)
			}
			for _, style := range s.Styles {
				ex, err := s.Exchange(context.Background(), style, rev)
				if err != nil {
					t.Fatal(err)
				}
				truth := s.SituationAt(rev)
				if truth.Layer == rules.LayerProtocol {
					// The request never reaches a tool, so no style can change the answer.
					if string(ex.Response) != string(good.Response) {
						t.Errorf("%s/%s/%s: a protocol-layer failure answered differently per style", s.ID, rev, style)
					}
					continue
				}
				rep := grade.Grade(grade.Input{Request: ex.Request, Response: ex.Response, Tools: tools, Spec: rev, Truth: &truth})
				name := s.ID + "/" + string(rev) + "/" + string(style)
				if style == mockserver.StyleGood {
					if rep.Verdict != grade.Clean {
						t.Errorf("%s: the good style grades %s: %+v", name, rep.Verdict, rep.Findings)
					}
					continue
				}
				if d := want[style]; !slices.Contains(rep.Defects(), d) {
					t.Errorf("%s: the %s style should show %s; found %v", name, style, d, rep.Defects())
				}
			}
		}
	}
}
