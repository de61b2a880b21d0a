# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Reading the lab's tables back (selftests/demo.sh, demo_fabric.sh):
# lab_parse_tables FILE fills CELL[EXPERIMENT|HEAD|LABEL] with each cell of
# a tables.txt that scripts/demo/tables.sh wrote (one table per experiment,
# a column per run, columns two spaces apart after a 58-character label).
# No process per cell: they are slow to start in an emulated VM.

# Experiment N of tables.sh is LAB_EXPERIMENTS[N-1].
LAB_EXPERIMENTS=(mismatch hol ends dcbx deadlock storm)
declare -A CELL
lab_parse_tables()
{
	local ex='' line label i rest v n
	local -a head=() vals

	while IFS= read -r line; do
		case $line in
		"Experiment "[0-9]*:*)
			n=${line#Experiment }
			n=${n%%:*}
			ex=${LAB_EXPERIMENTS[n - 1]:-}
			head=()
			continue
			;;
		"") ex=; continue ;;
		esac
		[ -n "$ex" ] || continue
		[ "${#line}" -gt 58 ] || continue
		label=${line:0:58}
		label=${label%"${label##*[! ]}"}
		vals=()
		rest=${line:60}
		while [ -n "$rest" ]; do
			v=${rest%%  *}
			vals+=("$v")
			rest=${rest#"$v"}
			rest=${rest#"${rest%%[! ]*}"}
		done
		if [ -z "$label" ]; then
			head=("${vals[@]}")
			continue
		fi
		for i in "${!head[@]}"; do
			# shellcheck disable=SC2034 # read by the scripts that source this
			CELL["$ex|${head[$i]}|$label"]=${vals[$i]:-}
		done
	done <"$1"
}
