package orgs

import "github.com/hearthforge/hearth/forge"

// all reads every item of a paged store list, page by page of
// forge.MaxPageSize (stores page every list).
func all[T any](list func(o forge.ListOptions) ([]T, int64, error)) ([]T, error) {
	var out []T
	for page := 1; ; page++ {
		items, total, err := list(forge.ListOptions{Page: page, Limit: forge.MaxPageSize})
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if len(items) < forge.MaxPageSize || int64(len(out)) >= total {
			return out, nil
		}
	}
}
