package rules_test

import (
	"fmt"
	"time"

	"github.com/hearthforge/hearth/examples/rules"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func ExamplePrioritise() {
	high := &issues.Label{ID: 1, Name: "priority/high", Exclusive: true}
	low := &issues.Label{ID: 2, Name: "priority/low", Exclusive: true}
	after, removed := rules.Prioritise([]*issues.Label{high}, low)
	fmt.Println(after[0].Name, "replaced", removed[0].Name)
	// Output: priority/low replaced priority/high
}

func ExampleImportStamp() {
	created := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	now := time.Date(2024, 4, 1, 9, 0, 0, 0, time.UTC)
	source := time.Date(2024, 3, 2, 9, 0, 0, 0, time.UTC)
	_, err := rules.ImportStamp(forge.Permission{Mode: forge.AccessModeWrite}, created, &source, now)
	fmt.Println(err)
	stamp, _ := rules.ImportStamp(forge.Permission{Mode: forge.AccessModeAdmin}, created, &source, now)
	fmt.Println(stamp.Format(time.RFC3339))
	// Output:
	// user needs to have admin or repository owner right to set an update date
	// 2024-03-02T09:00:00Z
}
