iiton
import.langmka#