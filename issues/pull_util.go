package issues

import "strconv"

// pullHeadRef is the ref of the base repository that holds pull request
// index's head.
func pullHeadRef(index int64) string { return "refs/pull/" + strconv.FormatInt(index, 10) + "/head" }
