# bash completion for hdrslim: commands, then the options `hdrslim help
# COMMAND` lists for the command being typed (so it never falls out of
# step with the binary), else file names.
_hdrslim()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		local cmds
		cmds=$(hdrslim --help 2>/dev/null | sed -n 's/^  hdrslim \([a-z-]*\).*/\1/p')
		COMPREPLY=($(compgen -W "$cmds help" -- "$cur"))
		return
	fi
	if [ "${COMP_WORDS[1]}" = help ]; then
		COMPREPLY=($(compgen -W "$(hdrslim --help 2>/dev/null | sed -n 's/^  hdrslim \([a-z-]*\).*/\1/p')" -- "$cur"))
		return
	fi
	case $cur in
	-*)
		local opts
		opts=$(hdrslim help "${COMP_WORDS[1]}" 2>/dev/null | grep -o -- '--\?[A-Za-z][A-Za-z-]*=\?' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _hdrslim hdrslim
